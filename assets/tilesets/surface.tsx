<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="surface" tilewidth="32" tileheight="32" tilecount="88" columns="8">
 <image source="surface.png" width="256" height="352"/>
 <tile id="0" type="bedrock">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="1" type="regolith">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="rough"/>
  </properties>
 </tile>
 <tile id="2" type="rubble">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="rough"/>
  </properties>
 </tile>
 <tile id="3" type="boulder">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="4" type="rock_wall">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="5" type="meltwater">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="water"/>
  </properties>
 </tile>
 <tile id="6" type="pad">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="7" type="module_floor">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="8" type="module_wall">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="9" type="supply_crate">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="10" type="barrier">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="11" type="mast">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="thin"/>
  </properties>
 </tile>
 <tile id="12" type="steps_n">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="stairs"/>
  </properties>
 </tile>
 <tile id="13" type="steps_w">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="stairs"/>
  </properties>
 </tile>
 <tile id="14" type="steps_s">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="stairs"/>
  </properties>
 </tile>
 <tile id="15" type="steps_e">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="stairs"/>
  </properties>
 </tile>
 <tile id="16" type="ladder">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="climbable"/>
  </properties>
 </tile>
 <tile id="17" type="platform">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="18" type="platform_hatch">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="climbable"/>
  </properties>
 </tile>
 <tile id="19" type="platform_rail">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="20" type="height_1_00">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="21" type="height_1_01">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="22" type="height_1_02">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="23" type="height_1_03">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="24" type="height_1_04">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="25" type="height_1_05">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="26" type="height_1_06">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="27" type="height_1_07">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="28" type="height_1_08">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="29" type="height_1_09">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="30" type="height_1_10">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="31" type="height_1_11">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="32" type="height_1_12">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="33" type="height_1_13">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="34" type="height_1_14">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="35" type="height_1_15">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="36" type="height_2_00">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="37" type="height_2_01">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="38" type="height_2_02">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="39" type="height_2_03">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="40" type="height_2_04">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="41" type="height_2_05">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="42" type="height_2_06">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="43" type="height_2_07">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="44" type="height_2_08">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="45" type="height_2_09">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="46" type="height_2_10">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="47" type="height_2_11">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="48" type="height_2_12">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="49" type="height_2_13">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="50" type="height_2_14">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="51" type="height_2_15">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="52" type="height_3_00">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="53" type="height_3_01">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="54" type="height_3_02">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="55" type="height_3_03">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="56" type="height_3_04">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="57" type="height_3_05">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="58" type="height_3_06">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="59" type="height_3_07">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="60" type="height_3_08">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="61" type="height_3_09">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="62" type="height_3_10">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="63" type="height_3_11">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="64" type="height_3_12">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="65" type="height_3_13">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="66" type="height_3_14">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="67" type="height_3_15">
  <properties>
   <property name="height" type="int" value="3"/>
  </properties>
 </tile>
 <tile id="68" type="height_4_00">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="69" type="height_4_01">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="70" type="height_4_02">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="71" type="height_4_03">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="72" type="height_4_04">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="73" type="height_4_05">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="74" type="height_4_06">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="75" type="height_4_07">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="76" type="height_4_08">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="77" type="height_4_09">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="78" type="height_4_10">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="79" type="height_4_11">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="80" type="height_4_12">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="81" type="height_4_13">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="82" type="height_4_14">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
 <tile id="83" type="height_4_15">
  <properties>
   <property name="height" type="int" value="4"/>
  </properties>
 </tile>
</tileset>
