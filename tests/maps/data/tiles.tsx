<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="depot" tilewidth="16" tileheight="16" tilecount="12" columns="4">
 <image source="tiles.png" width="64" height="48"/>
 <tile id="1">
  <properties>
   <property name="obstacle" value="full"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="obstacle" value="half"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="obstacle" value="thin"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="terrain" value="rough"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="terrain" value="water"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="terrain" value="stairs"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="terrain" value="climbable"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="floor" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="faction" value="red"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="faction" value="blue"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="terrain" value="rough,water"/>
  </properties>
 </tile>
</tileset>
