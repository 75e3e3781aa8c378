"""The web edge: the only package that imports Flask."""

from .app import ConfigError, create_app

__all__ = ["ConfigError", "create_app"]
