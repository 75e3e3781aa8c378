"""Wibble: a word-chain game. ``wibble.core`` holds the rules; the rest puts them online."""
