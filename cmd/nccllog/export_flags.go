package main

import (
	"fmt"

	"github.com/spf13/pflag"
)

// exportOpts are the flags that send a command's result to a file: report's and diff's HTML
// pages and calls' -o.
type exportOpts struct {
	html   string
	output string
}

// exportFlags adds the file flags of the commands that have them.
func (c *command) exportFlags(fs *pflag.FlagSet, o *options) {
	switch c.name {
	case "report":
		fs.StringVar(&o.html, "html", "", "write the report as one self-contained HTML page to `FILE` instead of printing it: summary, hang/check findings, charts and tables of ops, sizes, steps and ranks; opens offline (created only when the run succeeds)")
	case "diff":
		fs.StringVar(&o.html, "html", "", "write the differences and both runs' charts together as one self-contained HTML page to `FILE` instead of printing the table; opens offline (created only when both sides are read)")
	case "calls":
		fs.StringVarP(&o.output, "output", "o", "", "write the calls to `FILE` instead of standard output, created only when the run succeeds (--format parquet needs it)")
	case "summarize":
		fs.StringVarP(&o.output, "output", "o", "", "write the partial result to `FILE` instead of standard output, created only when the run succeeds")
	}
}

// validateExport checks the file flags and adds what the HTML page needs to the run.
func (o *options) validateExport(c *command) error {
	if c.name == "diff" && o.html != "" && o.format != "table" {
		return fmt.Errorf("--html writes the page in place of the table: it takes no --format %s", o.format)
	}
	if c.name == "report" && o.html != "" {
		// The page shows hang and check verdicts, the set-up and WARNs, per-rank and per-step volume.
		o.more = append(o.more, stagesOfHTML...)
	}
	if c.name == "calls" && o.format == "parquet" && o.output == "" {
		return fmt.Errorf("--format parquet needs -o FILE")
	}
	return nil
}
