"""Balance reports: many bot games summarised with intervals (cairn balance)."""
