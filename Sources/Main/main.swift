import widgetd

// The whole program is the widgetd module, which the tests import too; this target only starts it, so that the
// executable is linked apart from the test binary (Package.swift, `executableLinkSettings`).
WidgetdMain.main()
