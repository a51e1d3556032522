<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="hull" tilewidth="32" tileheight="32" tilecount="24" columns="8">
 <image source="hull.png" width="256" height="96"/>
 <tile id="0" type="void">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
  </properties>
 </tile>
 <tile id="1" type="hull">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="2" type="hull_vent">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="3" type="hull_torn">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="4" type="debris">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="rough"/>
  </properties>
 </tile>
 <tile id="5" type="girder">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="thin"/>
  </properties>
 </tile>
 <tile id="6" type="girder_ew">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="thin"/>
  </properties>
 </tile>
 <tile id="7" type="girder_ns">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="thin"/>
  </properties>
 </tile>
 <tile id="8" type="equipment">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="9" type="hull_rail_ew">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="10" type="hull_rail_ns">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="11" type="airlock">
  <properties>
   <property name="floor" type="bool" value="true"/>
   <property name="obstacle" value="none"/>
   <property name="terrain" value="climbable"/>
  </properties>
 </tile>
 <tile id="12" type="radiator_ew">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="thin"/>
  </properties>
 </tile>
 <tile id="13" type="radiator_ns">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="thin"/>
  </properties>
 </tile>
 <tile id="14" type="pod_hull">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="15" type="mast">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="thin"/>
  </properties>
 </tile>
 <tile id="16" type="hull_rib_ew">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="17" type="hull_rib_ns">
  <properties>
   <property name="floor" type="bool" value="false"/>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
</tileset>
