"""The `tianxia` command."""
