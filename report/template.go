package report

import (
	_ "embed"
	"html/template"
)

// page.html is the page: its style and its small script are inline, so
// the file stands alone.
//
//go:embed page.html
var pageHTML string

var pageTemplate = template.Must(template.New("report").Parse(pageHTML))
