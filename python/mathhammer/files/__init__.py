"""The files users keep: profile libraries (:mod:`~mathhammer.files.library`) and scenario files
with their ``[[sweep]]`` entries (:mod:`~mathhammer.files.scenario`), for every game at once."""
