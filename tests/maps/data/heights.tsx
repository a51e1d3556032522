<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="heights" tilewidth="16" tileheight="16" tilecount="12" columns="4">
 <image source="tiles.png" width="64" height="48"/>
 <tile id="0">
  <properties>
   <property name="height" type="int" value="0"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="height" type="int" value="1"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="height" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="height" type="int" value="3"/>
   <property name="terrain" value="rough"/>
  </properties>
 </tile>
</tileset>
