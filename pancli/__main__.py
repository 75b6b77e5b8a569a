from pancli.cli import main

main()
