/* tests.h — every test function, and the helpers the test files share. */
#ifndef COINFOLIO_TESTS_H
#define COINFOLIO_TESTS_H

#include <stddef.h>

#include <jansson.h>

#include "coinfolio.h"

/* compare.c: a decoded model against the raw body (both parsed by jansson). */
int compare_coin(const json_t *raw, const json_t *decoded, const char *where);
int check_markets_decoding(const char *body, size_t length, const char *label);
int check_global_decoding(const char *body, size_t length, const char *label);
int check_detail_decoding(const char *body, size_t length, const char *label);

/* test_client.c: handles and server helpers for the network tests. */
json_t *api_config(int max_retries, int timeout_ms); /* the "api" object for the server */
cf_client *open_client(json_t *config);              /* steals config */
cf_engine *open_engine(json_t *config);              /* steals config */
int queue_fault(const char *path, int status, int times, json_t *headers, const char *body);
json_t *logged_request(json_t *log, const char *path, int nth);
/* err (checked to be an error of `status`)'s details[key]: a number (NAN when absent), or a
 * malloc()ed string (NULL when absent). */
double detail_number(const char *err, int status, const char *key);
char *detail_string(const char *err, int status, const char *key);

/* test_client_edges.c */
void test_client_error_code_in_every_shape(void);
void test_client_asks_for_full_precision(void);
void test_client_compression_bomb_is_body_too_large(void);
void test_client_loopback_never_goes_through_a_proxy(void);

/* test_ledger_edges.c */
void test_edges_transaction_note_null_comes_back_null(void);
void test_edges_csv_number_with_a_comma_says_what_it_is(void);
void test_edges_exported_cells_cannot_run_as_formulas(void);

/* test_prices.c */
void test_client_market_chart_range_hourly_points_and_query(void);
void test_client_market_chart_range_plan_limit_and_unknown_coin(void);
void test_client_market_chart_range_five_minute_points_and_a_tiny_price(void);
void test_client_market_chart_range_refuses_bad_input_unsent(void);
void test_engine_price_at_lookup_order(void);
void test_engine_price_at_snapshot_within_the_hour(void);
void test_engine_price_at_no_data_reasons(void);
void test_engine_price_bad_input_changes_nothing(void);
void test_engine_manual_current_price_values_a_coin_the_snapshot_lacks(void);
void test_engine_pnl_uses_a_manual_current_price(void);
void test_engine_fill_prices_300_rows_3_coins_200_days_3_requests(void);
void test_engine_fill_prices_429_retry_after_119_stops_and_the_next_sends_nothing(void);
void test_engine_fill_prices_converts_a_buy_in_euros(void);
void test_engine_pending_price_pnl_is_unknown_with_its_coverage(void);
void test_engine_performance_reads_filled_and_manual_points(void);
void test_engine_performance_ends_at_the_manual_current_price(void);

/* test_format.c */
void test_library_version(void);
void test_string_free_and_close_accept_null(void);
void test_format_currency_two_decimals(void);
void test_format_currency_two_to_six_decimals(void);
void test_format_currency_symbols(void);
void test_format_price(void);
void test_format_number_and_percent(void);
void test_format_abbreviated(void);
void test_format_non_finite_is_na(void);
void test_format_negative_zero_prints_zero(void);
void test_format_invalid_arguments_return_null(void);

/* test_decode.c */
void test_decode_markets_fixture_matches_raw_values(void);
void test_decode_markets_keeps_unknown_price_as_null(void);
void test_decode_markets_tiny_and_huge_numbers(void);
void test_decode_markets_sparklines_of_any_length(void);
void test_decode_markets_duplicate_symbols_are_distinct_coins(void);
void test_decode_markets_skips_bad_elements(void);
void test_decode_global_fixture(void);
void test_decode_detail_fixture_plain_text(void);
void test_corpus_markets_decode_and_match(void);
void test_corpus_global_decode_and_match(void);
void test_corpus_coin_detail_decode_and_match(void);

/* test_bad_input.c */
void test_decode_rejects_null_and_malformed_input(void);
void test_decode_rejects_wrong_shapes(void);
void test_decode_survives_deep_nesting(void);
void test_decode_huge_markets_body(void);
void test_decode_lone_surrogate_is_clean(void);
void test_store_rejects_null_arguments(void);
void test_client_rejects_bad_arguments(void);
void test_engine_open_rejects_bad_config(void);
void test_engine_rejects_null_arguments(void);
void test_engine_bad_input_changes_nothing(void);

/* test_store.c */
void test_store_insert_update_delete(void);
void test_store_zero_or_negative_amount_never_inserts(void);
void test_store_rejects_bad_amounts_and_ids_writing_nothing(void);
void test_store_sql_looking_ids_are_stored_literally(void);
void test_store_amounts_round_trip_exactly(void);
void test_store_persists_across_close_and_reopen(void);
void test_store_holdings_sorted_by_coin_id(void);
void test_store_directory_path_is_store_error(void);
void test_store_file_that_is_not_a_database_is_store_error(void);
void test_store_memory_database(void);

/* test_client.c */
void test_client_markets_default_query(void);
void test_client_markets_ids_and_options(void);
void test_client_plan_keys_go_in_their_headers(void);
void test_client_retries_429_after_retry_after(void);
void test_client_long_retry_after_is_rate_limited_at_once(void);
void test_client_503_html_retries_then_http_error(void);
void test_client_server_error_then_success_is_retried(void);
void test_client_client_error_is_not_retried(void);
void test_client_slow_body_past_timeout_is_network_error(void);
void test_client_connection_refused_is_network_error(void);
void test_client_connection_closed_without_answer_is_network_error(void);
void test_client_truncated_or_html_body_is_classified(void);
void test_client_unauthorized_never_shows_the_key(void);
void test_client_coin_detail_query_and_path_encoding(void);

/* test_engine.c */
void test_engine_statistics_before_any_data_is_no_data(void);
void test_engine_portfolio_value_example(void);
void test_engine_empty_portfolio_is_zero_without_change(void);
void test_engine_portfolio_works_without_snapshot(void);
void test_engine_portfolio_has_one_wire_shape(void);
void test_engine_search_does_not_change_portfolio_value(void);
void test_engine_coins_sorting_and_paging(void);
void test_engine_coins_have_every_key(void);
void test_engine_refresh_request_counts(void);
void test_engine_refresh_tops_up_held_coin_outside_first_page(void);
void test_engine_statistics_after_refresh(void);
void test_engine_coin_detail_is_lazy_and_cached(void);
void test_engine_coin_detail_missing_price_prints_na(void);
void test_engine_concurrent_detail_requests_share_one(void);
void test_engine_failed_refresh_keeps_snapshot(void);
void test_engine_snapshot_survives_reopen_offline(void);
void test_engine_and_client_open_with_null_config(void);
void test_engine_metrics_count_every_attempt(void);
void test_engine_vs_currency_eur(void);
void test_engine_memory_answers_as_a_database_and_its_reopening(void);

/* test_offline.c */
void test_offline_as_of_is_the_data_time_not_the_load_time(void);
void test_offline_live_refresh_is_fresh(void);
void test_offline_snapshots_are_kept_per_currency(void);
void test_offline_portfolio_carries_unpriced_holdings(void);
void test_offline_coin_statistics_from_the_snapshot_alone(void);
void test_offline_saved_detail_and_stale_fallback(void);
void test_store_set_holdings_all_or_nothing(void);
void test_engine_set_holdings_in_one_call(void);
void test_offline_schema_v1_database_opens_with_holdings_and_snapshot(void);
/* test_ledger.c */
void test_ledger_worked_example_fifo(void);
void test_ledger_worked_example_average(void);
void test_ledger_worked_example_lifo(void);
void test_ledger_shortfall_is_refused_with_details(void);
void test_ledger_bad_input_changes_nothing(void);
void test_ledger_csv_edge_cases(void);
void test_ledger_csv_export_import_round_trip(void);
void test_ledger_portfolios(void);
void test_ledger_migrates_schema_v1_fixture(void);
void test_store_ledger_never_negative_through_positions(void);
void test_ledger_import_reports_progress(void);

/* test_returns.c */
void test_engine_returns_uk_example(void);
void test_engine_returns_uk_same_day(void);
void test_engine_returns_holding_periods(void);
void test_engine_returns_moved_lot(void);
void test_engine_returns_rows_and_csv(void);
void test_engine_returns_spec_example(void);
void test_engine_returns_performance(void);
void test_engine_returns_performance_asked_again(void);
void test_engine_returns_bad_options(void);
/* test_import.c */
void test_engine_import_coinbase_convert_is_a_trade(void);
void test_engine_import_binance_statement_group_with_bnb_fee(void);
void test_engine_import_kraken_codes_and_staking(void);
void test_engine_import_overlapping_export(void);
void test_engine_import_ambiguous_symbol(void);
void test_engine_import_broken_cell_and_unknown_header(void);
void test_engine_import_dry_run(void);
void test_engine_import_pending_rows_filled_and_euros_converted(void);

/* test_ledger_history.c */
void test_engine_ledger_history_fee_in_bnb(void);
void test_engine_ledger_history_swap(void);
void test_engine_ledger_history_move(void);
void test_engine_ledger_history_lot_orders(void);
void test_engine_ledger_history_groups_are_deleted_and_refused_whole(void);
void test_engine_ledger_history_bad_input_changes_nothing(void);
void test_engine_ledger_history_exact_money_and_income(void);
void test_engine_ledger_history_csv_round_trip(void);
/* test_harden.c */
void test_strict_json_at_every_entry_point(void);
void test_created_database_files_are_owner_only(void);
void test_dangling_link_target_is_created_owner_only(void);
void test_client_key_only_to_a_loopback_address(void);
void test_client_errors_never_hold_six_key_characters(void);
void test_client_body_over_max_body_bytes_is_body_too_large(void);
void test_client_hex_retry_after_is_ignored(void);
void test_client_remembers_a_long_retry_after(void);
void test_engine_metrics_count_suppressed_requests(void);
void test_client_error_classes(void);
/* test_charts.c: cf_chart_svg of chart with options (NULL and a recorded failure when it fails),
 * and svg_check.py's report of an SVG (NULL and a recorded failure when it fails). */
char *chart_svg(const char *chart, const char *options);
json_t *render_svg(const char *svg);
void test_decode_market_chart_keeps_null_points_as_gaps(void);
void test_client_market_chart_query_and_plan_limit(void);
void test_client_simple_price_splits_and_reads_empty_objects(void);
void test_engine_chart_summary_and_clamp(void);
void test_engine_chart_empty_series_has_null_summary(void);
void test_engine_portfolio_history_aligns_sparklines(void);
void test_engine_refresh_prices_is_one_request(void);
void test_chart_svg_rising_is_green_with_breaks_and_labels(void);
void test_chart_svg_falling_is_red_and_empty_says_no_data(void);
void test_chart_svg_rejects_bad_input(void);
void test_chart_functions_reject_null_arguments(void);
void test_engine_chart_download_reports_progress(void);
void test_store_refuses_an_id_with_a_comma(void);
/* test_chart_axes.c */
void test_chart_svg_value_ticks_of_several_magnitudes(void);
void test_chart_svg_flat_series_and_single_point(void);
void test_chart_svg_all_partial_series_is_dashed_with_a_note(void);
void test_chart_svg_partial_week_is_scaled_by_its_complete_points(void);
void test_chart_svg_time_ticks_are_utc_whatever_tz_says(void);
/* test_progress.c */
void test_progress_five_page_refresh_reports_every_page(void);
void test_progress_null_function_turns_it_off(void);
void test_progress_null_engine_is_invalid_argument(void);
void test_progress_nested_refresh_work_is_refused_not_a_crash(void);

/* test_header.c */
void test_status_names_are_the_headers(void);
void test_abi_version_is_the_headers(void);
void test_reasons_are_the_headers(void);
void test_detail_keys_are_the_headers(void);
void test_the_chart_reader_is_strict(void);
void test_the_transaction_reader_is_strict(void);

/* test_edges.c */
void test_edges_format_value_per_currency(void);
void test_edges_format_price_per_currency(void);
void test_edges_engine_values_in_the_currencys_precision(void);
void test_edges_unknown_change_is_left_out_with_coverage(void);
void test_edges_coin_at_zero_after_minus_100_percent(void);
void test_edges_numbers_sent_as_strings(void);
void test_edges_global_and_detail_warnings(void);
void test_edges_row_needs_only_its_id(void);
void test_edges_html_description_keeps_bare_brackets(void);
void test_edges_load_of_no_coin_replaces_nothing(void);
void test_edges_refresh_with_empty_first_page_keeps_snapshot(void);
void test_edges_search_normalized_case_folded_diacritic_insensitive(void);
void test_edges_holding_ids_with_upper_case_or_spaces(void);

/* test_postgres.c */
void test_store_two_owners_never_see_each_others_rows(void);
void test_engine_two_owners_share_the_snapshot_never_the_portfolio(void);
void test_engine_saved_sparklines_read_back_exactly_by_every_owner(void);
void test_store_open_v2_rejects_bad_config(void);
void test_store_postgres_password_never_in_errors(void);
void test_store_postgres_ambiguous_url_refused(void);
void test_store_postgres_password_with_delimiters_never_in_errors(void);
void test_store_unsupported_url_is_refused_not_a_path(void);
void test_store_open_v2_rejects_bad_database_timeouts(void);
void test_store_postgres_lock_held_elsewhere_times_out(void);

/* test_shared_market.c */
void test_engine_shared_second_refresh_within_max_age_sends_nothing(void);
void test_engine_shared_refreshes_at_once_send_one_set_of_requests(void);
void test_engine_shared_snapshot_seen_by_another_engine_on_its_next_query(void);
void test_engine_shared_owners_never_see_each_others_ledgers(void);
void test_engine_shared_read_database_beside_sqlite_is_refused(void);
void test_engine_shared_read_database_own_writes_and_failover(void);
void test_engine_shared_prepare_false_is_accepted(void);

#endif /* COINFOLIO_TESTS_H */
