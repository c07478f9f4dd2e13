"""Adapters that present Cairn games to other frameworks' APIs (optional extras):
`openspiel` registers each game as an OpenSpiel Python game, `pettingzoo` wraps each as
a PettingZoo AEC environment. Both share the action bound and seat views of `common`."""
