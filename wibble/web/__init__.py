"""The web edge: the only package that imports Flask or flask-sock."""

from .app import create_app

__all__ = ["create_app"]
