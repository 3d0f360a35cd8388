"""The typer application every `tianxia` sub-command registers on."""

import typer

app = typer.Typer(
    name="tianxia",
    help="Five board games of old China: play, simulate, replay, benchmark.",
    no_args_is_help=True,
    add_completion=False,
)
