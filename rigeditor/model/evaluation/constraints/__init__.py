"""Constraints solved during evaluation, one module a kind (IK chains today)."""
