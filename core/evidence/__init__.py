"""Where the figures come from and how far to trust them: the sources table, published measurements,
and how each level of the model scores against them."""
