"""Two or three real examples at the end of each command's --help (like git and black).

One table for every command, so the examples read alike and a test can
check that each one names options that exist.
"""

from __future__ import annotations

EXAMPLES: dict[str, tuple[str, ...]] = {
    "fmt": ("priffe fmt --check examples/",
            "priffe fmt --diff messy.ppn",
            "cat messy.ppn | priffe fmt - > clean.ppn"),
    "parse": ("priffe parse examples/partie-uppsala.ppn",
              "priffe parse --nl examples/ | head -1",
              "cat messy.ppn | priffe parse --csv -"),
    "validate": ("priffe validate examples/",
                 "cat examples/partie-uppsala.ppn | priffe validate -",
                 "priffe validate -q --csv examples/ > errors.csv"),
    "score": ("priffe score examples/partie-uppsala.ppn",
              "priffe score --fill old.ppn",
              "priffe score --fill -o filled.ppn old.ppn"),
    "replay": ("priffe replay examples/partie-uppsala.ppn --board 1",
               "priffe replay examples/partie-uppsala.ppn --html partie.html",
               "priffe replay --db priffe.db --id 3 --step"),
    "import": ("priffe import examples/",
               "priffe import --db klubb.db --analyse protokoll/ 1952.ppn",
               "cat kväll.ppn | priffe import -"),
    "query": ('priffe query --player "Astrid Lindqvist"',
              "priffe query --contract Spela --made --nl",
              "priffe query --event Klubbkväll --csv --no-headers"),
    "sql": ('priffe sql "SELECT contract, count(*) FROM deals GROUP BY contract"',
            "priffe sql \"SELECT * FROM player_standings\" --fmt github",
            "priffe sql \"SELECT ppn FROM deals WHERE slam\" --format ppn"),
    "analyse": ("priffe analyse",
                "priffe analyse klubb.db --budget 60 --jobs 2",
                "priffe analyse --db klubb.db --nodes 200000 -q"),
    "stats": ("priffe stats",
              'priffe stats --player "Astrid Lindqvist"',
              "priffe stats --json > stats.json"),
    "export": ("priffe export -o archive.ppn",
               "priffe export --player Anna -o anna.ppn",
               "priffe export --errors -o - | priffe validate -"),
    "metadata": ("priffe metadata",
                 "priffe metadata --db klubb.db -o klubb.metadata.json"),
    "remove": ("priffe remove --id 12 --dry-run",
               "priffe remove --source old.ppn"),
    "new": ("priffe new -p Anna -p Bertil -p Cecilia -p David --site Uppsala",
            "priffe new --deals 12 --dealer E -o torsdag.ppn",
            "priffe new --game preference -p Anna -p Franz -p Maria"),
    "add": ("priffe add kväll.ppn",
            "priffe add kväll.ppn --board 7",
            "cat answers.txt | priffe add --lang en evening.ppn"),
    "sheet-import": ("priffe sheet-import kväll.csv -o kväll.ppn",
                     "priffe sheet-import protokoll.xlsx --fill -o 1952.ppn",
                     "cat kväll.csv | priffe sheet-import --event Klubbkväll -"),
    "deal": ("priffe deal 4 --seed 7",
             "priffe deal --play 5 | priffe validate -",
             "priffe deal --play 3 --game preference > graz.ppn"),
    "completion": ("priffe completion bash >> ~/.bashrc",
                   "priffe completion zsh > ~/.zfunc/_priffe",
                   "priffe completion fish > ~/.config/fish/completions/priffe.fish"),
    "serve": ("priffe serve",
              "priffe serve --db klubb.db --port 8002",
              "priffe serve --open"),
}


def epilog(name: str) -> str | None:
    """The examples as a help epilog; ``\\b`` keeps click from re-wrapping the lines."""
    lines = EXAMPLES.get(name)
    if not lines:
        return None
    return "\b\n" + "Examples:" + "\n" + "\n".join(f"  {line}" for line in lines)

