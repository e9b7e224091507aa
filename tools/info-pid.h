/* info-pid.h - fastcopy-info's --pid (tools/info-pid.c). */
#ifndef FC_INFO_PID_H
#define FC_INFO_PID_H
/* Reports on process pid; force_recompute: do not read its memory.  The exit
 * status: 0 reported, 1 no libfastcopy found or cannot tell, 2 bad pid. */
int fc_info_pid(const char *pid, int force_recompute);
/* The recomputing child's mode: this process's status block, raw, on stdout. */
int fc_info_status_dump(void);
#endif
