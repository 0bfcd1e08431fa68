"""Hand-off files: what the plan gives the tools that build and run the cluster (Slurm's
topology, UFM's point-to-point workbook, a NetBox bundle). The arithmetic is in `solver/`;
`formats.py` writes the files; handoff/exports.py registers them."""
