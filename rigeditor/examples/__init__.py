"""The built-in example rigs, built from the edits (rigs, art, skin) and their picture files."""
