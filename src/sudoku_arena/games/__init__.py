"""The games, one package each; generic code reaches them through the registry."""
