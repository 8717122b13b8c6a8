"""`mindnet`: the headless command line (`main.py` parses and dispatches; one module per
command group; `common.py` is what they share)."""
