"""Network play, written once for every game: the messages (:mod:`core.net.messages`), what each
seat may see (:mod:`core.net.view`) and the server that alone holds the true game
(:mod:`core.net.server`).  The command line's host, join and watch commands live in ``cli``."""
