"""tools/plot: figures of hermes-sim run and sweep directories (matplotlib)."""
