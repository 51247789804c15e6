"""Evaluation: Project + frames -> Bake (spaces, kinematics, constraints, the art and mesh parts)."""
