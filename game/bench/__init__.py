"""`tessera bench`: the speed goals of the grid kernels, the battle and the window."""
