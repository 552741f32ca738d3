"""CLI habits shared by every command (issue 12): one --preset, input from '-', output styles."""

from __future__ import annotations

import click
import pytest

from priffe_records.cli import cli
from priffe_records.rules.priffe.options import PRESETS


def _preset(command: click.Command) -> click.Option | None:
    return next((p for p in command.params
                 if isinstance(p, click.Option) and "--preset" in p.opts), None)


def test_every_preset_option_offers_exactly_the_presets() -> None:
    with_preset = {name: _preset(c) for name, c in cli.commands.items() if _preset(c)}
    assert {"validate", "score", "replay"} <= set(with_preset)
    for name, opt in with_preset.items():
        assert opt is not None and isinstance(opt.type, click.Choice), name
        assert sorted(opt.type.choices) == sorted(PRESETS), name
        assert opt.default == "sv", name


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_preset_reaches_the_library_as_options(preset: str) -> None:
    opt = _preset(cli.commands["validate"])
    assert opt is not None
    ctx = click.Context(cli.commands["validate"])
    assert opt.process_value(ctx, preset) is PRESETS[preset]
