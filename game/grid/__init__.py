"""The 3D battlefield: a read-only numpy model, line of sight, cover and movement kernels."""
