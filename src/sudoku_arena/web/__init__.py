"""The browser side: pages, one generic script and a style sheet (package data)."""
