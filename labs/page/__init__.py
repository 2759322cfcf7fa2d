"""What every page is built from: text panes, number formatting, theme, layout, cards, badges, links."""
