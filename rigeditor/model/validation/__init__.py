"""Semantic checks of a Project: every problem, each with where it is."""
