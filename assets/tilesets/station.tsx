<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="station" tilewidth="32" tileheight="32" tilecount="32" columns="8">
 <image source="station.png" width="256" height="128"/>
 <tile id="0" type="floor">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="1" type="floor_worn">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="2" type="floor_hazard">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="3" type="grating">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="4" type="wall">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="5" type="crate">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="6" type="console">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="7" type="pillar">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="thin"/>
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
 <tile id="13" type="hatch">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="climbable"/>
  </properties>
 </tile>
 <tile id="14" type="door_ew">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="15" type="door_ns">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="16" type="coolant">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="water"/>
  </properties>
 </tile>
 <tile id="17" type="railing_ew">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="18" type="railing_ns">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="19" type="marker">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="20" type="pipes_ew">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="21" type="pipes_ns">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="22" type="crate_stack">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="23" type="grating_edge">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="24" type="floor_upper">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
</tileset>
