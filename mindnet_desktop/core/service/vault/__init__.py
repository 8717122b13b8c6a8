"""The vault an app or a command opens: the facade `Mindnet`, what it has read of the
index (`VaultState`), a large import in a child process, a second index for comparison."""
