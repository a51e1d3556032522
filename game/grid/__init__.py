"""The 3D battlefield: a read-only numpy model with line of sight, cover and movement (G-*, P-LOS, P-COV, P-MOV)."""
