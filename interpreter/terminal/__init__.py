"""The readable terminal: boards drawn in text from the data and terminal.yaml's hints,
screens that fit about 40 rows of 100 columns and show what changed, and the play loop
(undo against bots, save and resume, several people passing one terminal)."""
