"""One module a ``faro-shoe`` subcommand; see :mod:`shoe.cli`."""
