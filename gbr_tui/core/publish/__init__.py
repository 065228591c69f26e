"""Publishing a study: its diagram, the renderers that print it, an index of a collection by class."""
