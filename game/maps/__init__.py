"""The only module that knows Tiled: .tmx files become grids, units and render layers."""
