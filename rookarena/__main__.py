from rookarena.cli import main

main()
