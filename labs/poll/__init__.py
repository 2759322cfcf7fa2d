"""The live class poll: a store shared by every server process, each session's room, its panel."""
