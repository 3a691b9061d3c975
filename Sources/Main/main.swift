import CLI
import Daemon

// The program is the CLI module, and the daemon's loop the Daemon module, which the tests import too; this target
// only starts the CLI with the daemon to run for `widgetd run`, so that the CLI cannot reach the daemon's state and
// the executable is linked apart from the test binary (Package.swift, `executableLinkSettings`).
WidgetdMain.main(daemon: DaemonLauncher(run: RunCommand.run))
