/*
 * view.h: `reckonctl view RUN_DIR`, one self-contained HTML page that
 * replays a run: the map with every entity's true and displayed paths
 * per predictor, update arrivals and losses, error over time, led trend
 * and pheromone grids as heatmaps and lag-compensation events as rays
 * (docs/viewer.md). It reads the observer's --samples files, the
 * metrics file and the canonical scenario; it needs no network to open.
 */
#ifndef RECKON_VIEW_H
#define RECKON_VIEW_H

#include <stdio.h>

/* The reckonctl subcommand: argv[0] is the first argument after "view".
 * 0, or 1 with the reason on stderr. */
int ctl_view(int argc, char *argv[]);

/* The page's fixed parts around the map and the run's data:
 * view_head.html (styles, controls) and view_tail.html (the script that
 * draws), embedded by CMake at configure time (view_page.c). */
extern const char view_page_head[];
extern const char view_page_tail[];

#endif
