"""Diagnostics read off a Bake: the crack check at joints."""
