"""What every face of kgdiff asks the store the same way: ids, labels, outputs."""
