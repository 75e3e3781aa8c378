"""Engines: the state that server processes share, behind one contract per role.

Five roles: the ``store`` (documents between moves), the ``bus`` (what connections hear),
``presence`` (who is connected where), ``claims`` (which process runs a deadline) and the
``meter`` (what each client address has spent). Each role is a package holding its
contract (``base``) and every engine that keeps it: ``memory`` for one process, ``sqlite``
for the store on one host, and ``redis`` for several processes at once (``wibble serve
--redis``; only then is anything of Redis imported, and the ``redis`` package need not be
installed otherwise). The rules and the live layer talk to the contracts only, and never
know which engine is behind them; ``tests/engines`` runs each role's contract on each of
its engines.
"""
