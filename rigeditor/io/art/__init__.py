"""Artwork files: PSD and PNG-folder importers, image files, the texture-atlas packer."""
