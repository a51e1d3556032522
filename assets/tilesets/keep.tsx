<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="keep" tilewidth="32" tileheight="32" tilecount="24" columns="8">
 <image source="keep.png" width="256" height="96"/>
 <tile id="0" type="grass">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="1" type="cobbles">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="2" type="mud">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="rough"/>
  </properties>
 </tile>
 <tile id="3" type="stone_wall">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="4" type="walk">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="5" type="battlement">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="6" type="planks">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="7" type="gate">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="8" type="stairs_n">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="stairs"/>
  </properties>
 </tile>
 <tile id="9" type="stairs_w">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="stairs"/>
  </properties>
 </tile>
 <tile id="10" type="stairs_s">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="stairs"/>
  </properties>
 </tile>
 <tile id="11" type="stairs_e">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="stairs"/>
  </properties>
 </tile>
 <tile id="12" type="ladder">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="climbable"/>
  </properties>
 </tile>
 <tile id="13" type="trapdoor">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="climbable"/>
  </properties>
 </tile>
 <tile id="14" type="barrel">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="15" type="cart">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="16" type="well">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="17" type="tree">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="thin"/>
  </properties>
 </tile>
 <tile id="18" type="rock">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="19" type="water">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="water"/>
  </properties>
 </tile>
 <tile id="20" type="door_ns">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
</tileset>
