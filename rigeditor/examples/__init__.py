"""The built-in example rigs, built from the edits (rigs, art, skin), their picture files,
and the example projects as files found by name (files)."""
