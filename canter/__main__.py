from canter.cli import main

main()
