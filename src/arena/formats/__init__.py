"""Files: the JSON game record and SGF."""
