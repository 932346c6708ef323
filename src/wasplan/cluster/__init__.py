"""The cluster being planned on: parsed records, snapshot building, Job expansion, array-based node state."""
