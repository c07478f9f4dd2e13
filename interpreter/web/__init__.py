"""The web player and replay viewer (`cairn serve`): a page to play against bots by
clicking, and to step through game records from any seat's view. Needs the `web` extra
(Starlette and uvicorn): pip install 'cairn[web]'."""
