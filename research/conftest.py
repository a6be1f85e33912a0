"""The research tests (research/tests/): this file's folder, research/, goes on the import path
(pytest's default import mode puts a rootless conftest's folder there), so the tests import the
stack as ``netlab`` and the scripts beside it by name, as the scripts do when run from here."""
