"""Angle-curve exports: the table every curve export writes, CSV, key-reduced JSON."""
