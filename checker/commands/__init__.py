"""The commands of `mjcheck`, one module per group; checker/cli.py assembles them."""
