/* cmds.h - the analyser's subcommands; each returns the exit status
 * (0 ok, 2 bad input or usage, 1 internal failure).
 *
 * Copyright (C) 2026 perfpred developers.  GPL-3.0-or-later.
 */
#ifndef PERFPRED_CMDS_H
#define PERFPRED_CMDS_H

int pp_cmd_show(int argc, char **argv);
int pp_cmd_predict(int argc, char **argv);
int pp_cmd_scale(int argc, char **argv);
int pp_cmd_graph(int argc, char **argv);
int pp_cmd_calibrate(int argc, char **argv);
int pp_cmd_validate(int argc, char **argv);
int pp_cmd_record(int argc, char **argv);
int pp_cmd_fit(int argc, char **argv);
int pp_cmd_sensitivity(int argc, char **argv);
int pp_cmd_experiment(int argc, char **argv);
int pp_cmd_report(int argc, char **argv);
int pp_cmd_equations(int argc, char **argv);
int pp_cmd_timeline(int argc, char **argv);

#endif
